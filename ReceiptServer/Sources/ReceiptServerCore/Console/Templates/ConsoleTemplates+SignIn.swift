extension ConsoleTemplates {
    /// The sign-in form: the server's access token, and the sign-in cookie's value echoed back.
    static let signIn = #"""
    {{<layout}}
    {{$content}}
    {{#page}}
    <h1>Sign in</h1>
    <p>Sign in with the server's access token (<code>RECEIPT_SERVER_ACCESS_TOKEN</code>). The session ends when you sign out, after 30 minutes without use, or 8 hours after signing in.</p>
    {{#error}}<p class="alert" role="alert" id="sign-in-error">{{.}}</p>{{/error}}
    <form class="stacked" method="post" action="/console/sign-in">
    <input type="hidden" name="signInToken" value="{{signInToken}}">
    <input type="text" name="username" value="receipt-server-console" autocomplete="username" hidden>
    <label for="token">Access token</label>
    <input id="token" name="token" type="password" required autocomplete="current-password" autofocus{{#error}} aria-invalid="true" aria-describedby="sign-in-error"{{/error}}>
    <button type="submit">Sign in</button>
    </form>
    {{/page}}
    {{/content}}
    {{/layout}}
    """#
}
