/// The console's stylesheet, served at `/console/static/console.css`: system fonts, readable on a
/// phone (one column, tables scroll sideways in their own box) and on a desktop (a centred column
/// up to 72 rem), visible keyboard focus, state shown in words as well as colour.
enum ConsoleStylesheet {
    static let text = #"""
    :root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b5cad; --ok: #116329; --ok-bg: #dafbe1; --bad: #a40e26; --bad-bg: #ffebe9; --note-bg: #fff8c5; }
    * { box-sizing: border-box; }
    html { font-size: 100%; }
    body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; line-height: 1.5; color: var(--ink); background: #fff; }
    a { color: var(--accent); }
    a:focus-visible, button:focus-visible, input:focus-visible, summary:focus-visible, main:focus-visible { outline: 3px solid #f2b400; outline-offset: 2px; }
    code, pre, .id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
    .skip-link { position: absolute; left: -999rem; top: 0; background: #fff; padding: 0.5rem 1rem; z-index: 10; }
    .skip-link:focus { left: 0.5rem; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .masthead { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.5rem; padding: 0.75rem 1rem; border-bottom: 1px solid var(--line); background: #f6f8fa; }
    .brand { margin: 0; font-weight: 700; }
    .brand a { color: var(--ink); text-decoration: none; }
    nav { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 0.5rem 1rem; flex: 1 1 30rem; justify-content: space-between; }
    .search { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.5rem; flex: 1 1 24rem; }
    .search label { font-weight: 600; }
    .search input { flex: 1 1 14rem; min-width: 0; }
    .help { flex-basis: 100%; color: var(--muted); font-size: 0.85rem; }
    input, button { font: inherit; padding: 0.4rem 0.6rem; border: 1px solid #8c959f; border-radius: 6px; }
    button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
    .sign-out button { background: #fff; color: var(--ink); border-color: #8c959f; }
    main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
    h1 { font-size: 1.5rem; margin: 0.5rem 0 0.25rem; overflow-wrap: anywhere; }
    h2 { font-size: 1.2rem; margin: 2rem 0 0.5rem; }
    .meta, .sub, caption { color: var(--muted); }
    .sub { display: block; font-size: 0.85rem; font-weight: 400; }
    .stacked { display: flex; flex-direction: column; gap: 0.5rem; max-width: 24rem; }
    .alert { border-left: 4px solid var(--bad); background: var(--bad-bg); padding: 0.5rem 0.75rem; }
    .notice { border-left: 4px solid #9a6700; background: var(--note-bg); padding: 0.25rem 1rem 0.75rem; }
    .notice h2 { margin-top: 0.5rem; }
    .table-wrap { position: relative; overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
    table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
    caption { text-align: left; padding: 0.5rem 0.75rem; }
    th, td { text-align: left; vertical-align: top; padding: 0.5rem 0.75rem; border-top: 1px solid var(--line); }
    thead th { background: #f6f8fa; white-space: nowrap; }
    tbody th { font-weight: 600; }
    th, td { overflow-wrap: break-word; }
    .ids, .verdict .sub { overflow-wrap: anywhere; }
    /* Product IDs break at their dots only (<wbr> after each), never mid-word. */
    .product { overflow-wrap: normal; word-break: keep-all; }
    .product-cell, td.product { min-width: 10rem; }
    .event-cell { min-width: 12rem; }
    .state-cell, .verdict { min-width: 9rem; }
    .reason { min-width: 18rem; }
    .ids { min-width: 9rem; }
    time { white-space: nowrap; }
    .badge { display: inline-block; padding: 0 0.45rem; border-radius: 999px; font-size: 0.8rem; font-weight: 600; border: 1px solid var(--line); white-space: nowrap; }
    .badge.ok { color: var(--ok); background: var(--ok-bg); border-color: #4ac26b; }
    .badge.bad { color: var(--bad); background: var(--bad-bg); border-color: #ff8182; }
    tr.unverified { background: var(--bad-bg); }
    .facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
    .facts dt { font-weight: 600; }
    .facts dd { margin: 0; }
    pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
    summary { cursor: pointer; font-weight: 600; }
    .footer { max-width: 72rem; margin: 2rem auto 0; padding: 1rem; border-top: 1px solid var(--line); color: var(--muted); font-size: 0.9rem; }
    @media (max-width: 40rem) {
      .facts { grid-template-columns: 1fr; }
      .facts dd { margin-bottom: 0.5rem; }
      th, td { padding: 0.4rem 0.5rem; }
    }

    """#
}
