// The screens' stylesheets, each loaded when a screen that needs it is first opened (issue 40: a
// light first page). app.css comes with the page and styles the start page, including what it
// shows of the other rooms; the others are named here and asked for by main.js's SCREENS. They
// go into the page in one fixed order whatever the order of her visits, so the cascade is the
// one of the page that once linked them all.

const SHEETS = {
  speedquilt: "/static/speedquilt.css",
  tables: "/static/tables.css",
  solo: "/static/solo.css",
  progress: "/static/progress.css",
};
const ORDER = Object.keys(SHEETS);
const loading = new Map();

/** Load the named sheets (once each); resolves when they are applied, or failed to come (the
 * screen opens anyway, rather than never). */
export function loadStyles(names = []) {
  return Promise.all(names.map(load));
}

function load(name) {
  if (!loading.has(name)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = SHEETS[name];
    link.dataset.sheet = name;
    const applied = new Promise((resolve) => {
      link.addEventListener("load", resolve, { once: true });
      link.addEventListener("error", resolve, { once: true });
    });
    const later = [...document.querySelectorAll("link[data-sheet]")].find(
      (other) => ORDER.indexOf(other.dataset.sheet) > ORDER.indexOf(name),
    );
    if (later) later.before(link);
    else document.head.append(link);
    loading.set(name, applied);
  }
  return loading.get(name);
}
