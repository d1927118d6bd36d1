extension ConsoleTemplates {
    /// The page around every page's content: header with navigation (search, sign out) when signed
    /// in, main, footer. Pages fill `{{$content}}`.
    static let layout = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{title}} · Receipt server console</title>
    <link rel="icon" href="/console/static/favicon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="/console/static/console.css">
    <script src="/console/static/console.js" defer></script>
    </head>
    <body>
    <a class="skip-link" href="#main">Skip to content</a>
    <header class="masthead">
    <p class="brand"><a href="/console">Receipt server console</a></p>
    {{#signedIn}}
    <nav aria-label="Console">
    <form class="search" role="search" method="get" action="/console/search">
    <label for="q">Find a customer</label>
    <input id="q" name="q" type="search" value="{{query}}" required maxlength="128" autocomplete="off" spellcheck="false" aria-describedby="q-help">
    <button type="submit">Search</button>
    <span id="q-help" class="help">appAccountToken, originalTransactionId or transactionId</span>
    </form>
    <form class="sign-out" method="post" action="/console/sign-out">
    <input type="hidden" name="csrf" value="{{csrf}}">
    <button type="submit">Sign out</button>
    </form>
    </nav>
    {{/signedIn}}
    </header>
    <main id="main" tabindex="-1">
    {{$content}}{{/content}}
    </main>
    <footer class="footer">
    <p id="time-note">Dates are in UTC.</p>
    </footer>
    </body>
    </html>

    """#
}
