// The panel's style, a string rather than a .css file: the package's dist is plain tsc output, with no CSS loader.

/**
 * Scoped by the shadow root: none of it reaches the page. `:host { all: initial }`
 * stops the page's inherited properties (font, colour, line height) coming in.
 */
export const DEVTOOLS_STYLES = `
:host {
  all: initial;
  position: fixed;
  right: 12px;
  bottom: 12px;
  z-index: 2147483647;
  color-scheme: light dark;
  --bg: #fff;
  --fg: #1b1b1b;
  --muted: #595959;
  --line: #d0d0d0;
  --accent: #0b57d0;
  --error: #b3261e;
  font: 13px / 1.4 system-ui, sans-serif;
  color: var(--fg);
}
@media (prefers-color-scheme: dark) {
  :host {
    --bg: #161616;
    --fg: #ececec;
    --muted: #b0b0b0;
    --line: #3a3a3a;
    --accent: #8ab4f8;
    --error: #ffb4ab;
  }
}
/* The hidden attribute wins over the display rules below. */
[hidden] { display: none !important; }
.frame {
  display: flex;
  flex-direction: column;
  align-items: flex-end;
  gap: 6px;
}
.body {
  box-sizing: border-box;
  width: min(34rem, calc(100vw - 24px));
  max-height: min(42rem, calc(100vh - 64px));
  overflow: auto;
  background: var(--bg);
  border: 1px solid var(--line);
  border-radius: 8px;
  box-shadow: 0 6px 24px rgb(0 0 0 / 0.25);
  padding: 8px 10px;
}
h2 { font-size: 13px; margin: 8px 0 4px; }
h3 { font-size: 12px; margin: 6px 0 2px; color: var(--muted); }
section + section { border-top: 1px solid var(--line); margin-top: 6px; }
p { margin: 2px 0; }
.now { color: var(--muted); }
.error { color: var(--error); }
.error:empty { display: none; }
.line { display: flex; flex-wrap: wrap; gap: 6px; align-items: end; }
label { display: inline-flex; flex-direction: column; gap: 2px; font-size: 12px; }
fieldset { border: 1px solid var(--line); border-radius: 4px; margin: 4px 0; padding: 4px 6px; display: flex; flex-wrap: wrap; gap: 4px; }
legend { color: var(--muted); font-size: 12px; }
input, select, button {
  font: inherit;
  color: var(--fg);
  background: var(--bg);
  border: 1px solid var(--muted);
  border-radius: 4px;
  padding: 2px 6px;
  margin: 0;
}
button { cursor: pointer; border-color: var(--accent); color: var(--accent); }
.toggle {
  background: var(--accent);
  color: var(--bg);
  font-weight: 600;
  padding: 6px 10px;
  border-radius: 16px;
  box-shadow: 0 2px 8px rgb(0 0 0 / 0.25);
}
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.toggle:focus-visible { outline-color: var(--fg); }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 1px 4px; border-bottom: 1px solid var(--line); white-space: nowrap; }
td.path { white-space: normal; overflow-wrap: anywhere; }
td.actions button + button { margin-left: 4px; }
ul { margin: 0; padding-left: 18px; }
.scroll { max-height: 8rem; overflow: auto; }
thead th { position: sticky; top: 0; background: var(--bg); }
`
