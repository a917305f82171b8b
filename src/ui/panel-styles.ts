// The panel's one stylesheet: the server's page (dist/panel/panel.css is written from it) and a page's corner panel (its shadow root).
// A string rather than a .css file: the package's dist is plain tsc output, with no CSS loader.

export const PANEL_STYLES = `
.sim { color-scheme: light dark; background: var(--bg); color: var(--fg); font: 15px / 1.45 system-ui, sans-serif;
  --bg: #fff; --fg: #1b1b1b; --muted: #595959; --line: #d0d0d0; --accent: #0b57d0; --error: #b3261e; --banner: #fde7e9; }
@media (prefers-color-scheme: dark) {
  .sim { --bg: #161616; --fg: #ececec; --muted: #b0b0b0; --line: #3a3a3a; --accent: #8ab4f8; --error: #ffb4ab; --banner: #5c1a1a; }
}
/* The hidden attribute wins over the display rules below. */
[hidden] { display: none !important; }
h1 { font-size: 1.2rem; margin: 0; flex: 1; } h2 { font-size: 1.05rem; margin: 0 0 0.5rem; } h3 { font-size: 0.95rem; margin: 0.75rem 0 0.25rem; }
p { margin: 0.25rem 0 0; } ul { padding-left: 1.2rem; margin: 0; } li { margin: 0.15rem 0; }
section { border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; overflow-x: auto; }
fieldset { border: 1px solid var(--line); border-radius: 4px; margin: 0 0 0.75rem; display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
.line { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
label { display: inline-flex; flex-direction: column; font-size: 0.85rem; gap: 0.15rem; }
input, select, button { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--muted); border-radius: 4px; padding: 0.2rem 0.4rem; margin: 0; }
button { cursor: pointer; border-color: var(--accent); color: var(--accent); } button:disabled { cursor: not-allowed; opacity: 0.6; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 0.2rem 0.5rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
/* Margins, not a flex cell: a td that is not display: table-cell loses its place in the table. */
td.actions button { padding: 0 0.5rem; } td.actions button + button { margin-left: 0.4rem; }
legend, .now, .hint { color: var(--muted); } .now, .hint, .error { width: 100%; } .error { color: var(--error); }
.error:empty, .now:empty { display: none; }
/* Coverage: an outcome never answered is greyed besides its word "never", so the seen ones stand out at a glance. */
tr.never td { color: var(--muted); }
/* How to provoke an outcome never seen: a sentence, so it wraps in its column rather than widening the table
   (10rem: what the corner panel has left beside the longest outcome id). */
td.recipe { white-space: normal; min-width: 10rem; font-size: 0.85em; }
/* The server's page: two columns, the right one wider (the requests have seven columns, the forms on the left wrap). */
body.sim { margin: 0; }
.page header, .page #token-form { display: flex; flex-wrap: wrap; gap: 1rem; align-items: end; padding: 0.5rem 1rem; border-bottom: 1px solid var(--line); }
.page main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; padding: 1rem; }
@media (min-width: 56rem) { .page main { grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); } }
.page #orders-section { grid-column: 1 / -1; }
/* The last section, alone in its row: the whole width, so that each recipe reads on a line or two. */
.page #coverage-section { grid-column: 1 / -1; }
#banner { background: var(--banner); padding: 0.3rem 0.6rem; border-radius: 4px; margin: 0; }
/* Fixed columns, and a path or id that wraps anywhere: the table fits its column, however long the path. */
table[id$='requests-table'] { table-layout: fixed; font-size: 0.85rem; }
table[id$='requests-table'] :is(th, td) { white-space: normal; overflow-wrap: anywhere; padding: 0.2rem 0.25rem; vertical-align: top; }
.w-time { width: 8em; } .w-method { width: 5em; } .w-status { width: 4.6em; } .w-ms { width: 4.2em; } .w-operation { width: 7.2em; } .w-order { width: 7em; }
/* A page's corner panel: its host is fixed in the corner, and none of the page's inherited properties come in. */
:host { all: initial; position: fixed; right: 12px; bottom: 12px; z-index: 2147483647; }
.dock { display: flex; flex-direction: column; align-items: flex-end; gap: 6px; background: none; font-size: 13px; }
.dock .body { box-sizing: border-box; width: min(40rem, calc(100vw - 24px)); max-height: min(42rem, calc(100vh - 64px)); overflow: auto;
  background: var(--bg); border: 1px solid var(--line); border-radius: 8px; box-shadow: 0 6px 24px rgb(0 0 0 / 0.25); padding: 8px 10px; }
.dock section { border: none; border-radius: 0; padding: 4px 0; } .dock section + section { border-top: 1px solid var(--line); }
.dock h2 { font-size: 13px; margin: 4px 0; } .dock h3 { font-size: 12px; margin: 6px 0 2px; color: var(--muted); }
.dock .scroll { max-height: 8rem; overflow: auto; } .dock thead th { position: sticky; top: 0; background: var(--bg); }
.toggle { background: var(--accent); color: var(--bg); font-weight: 600; padding: 6px 10px; border-radius: 16px; box-shadow: 0 2px 8px rgb(0 0 0 / 0.25); }
.toggle:focus-visible { outline-color: var(--fg); }
`
