// The Spielcenter client: loads the account and the catalogue, then shows the start page (#/) or
// a screen (#/game/<id>, #/table/<id>, …). No build step; every module is a plain ES module.
// Only the start page comes with this module; every other screen's modules and stylesheets are
// fetched when the screen is first opened (issue 40: a light first page; docs/performance.md,
// "The first page").

import { fetchMe, send } from "./api.js";
import { errorText } from "./errors.js";
import { browserLanguage, LANGUAGES, language, loadLanguage, t } from "./i18n.js";
import { showStart } from "./start.js";
import { addProgressLink, progressRoute } from "./progress-link.js";
import { addSoloStart } from "./speedquilt-solo-start.js";
import { loadStyles } from "./styles.js";

/** A route by a pattern of the address: what its group names (decoded), "" without a group. */
const pattern = (regex) => (hash) => {
  const match = regex.exec(hash);
  return match ? decodeURIComponent(match[1] ?? "") : null;
};

/** The stylesheets of the Speedquilt screens (a table, a stage, a replay): the game's, the
 * people at a table's and the solo game's; they share classes. */
const SPEEDQUILT = ["speedquilt", "tables", "solo"];

/** The screens besides the start page: what the address names (null: not this screen), the
 * module (imported on the first visit), the stylesheets beside app.css (styles.js) and how to
 * make the screen from the module. */
const SCREENS = [
  {
    // A campaign stage or a daily quilt: the table screen on a stored game.
    match: pattern(/^#\/solo\/(.+)$/),
    load: () => import("./speedquilt-solo.js"),
    styles: SPEEDQUILT,
    make: (module, id) => new module.SoloScreen(root, id, app),
  },
  {
    match: pattern(/^#\/table\/(.+)$/),
    load: () => import("./speedquilt-table.js"),
    styles: SPEEDQUILT,
    make: (module, id) => new module.TableScreen(root, id, app),
  },
  {
    match: pattern(/^#\/game\/(.+)$/),
    load: () => import("./game.js"),
    make: (module, id) => new module.GameScreen(root, id, app),
  },
  // Tables with people: an invitation's join screen, the lobby, the account's taler.
  {
    match: pattern(/^#\/join\/(.+)$/),
    load: () => import("./speedquilt-lobby.js"),
    styles: ["tables"],
    make: (module, code) => new module.JoinScreen(root, code, app),
  },
  {
    match: pattern(/^#\/lobby$/),
    load: () => import("./speedquilt-lobby.js"),
    styles: ["tables"],
    make: (module) => new module.LobbyScreen(root, app),
  },
  {
    match: pattern(/^#\/taler$/),
    load: () => import("./taler.js"),
    styles: ["tables"],
    make: (module) => new module.TalerScreen(root, app),
  },
  {
    match: progressRoute,
    load: () => import("./progress.js"),
    styles: [...SPEEDQUILT, "progress"],
    make: (module, where) => new module.ProgressScreen(root, where, app),
  },
];

const root = document.getElementById("app");
let screen = null;

const app = {
  me: null,
  settings: {},

  /** Start a new game (a given deal, a fresh one, or a restart of a game) and go to it. */
  async newGame({ game, variant, deal, restart, winnableOnly }) {
    const body = restart ? { restart } : { game, variant };
    if (deal !== undefined) body.deal = deal;
    else if (winnableOnly && !restart) body.winnable_only = true;
    try {
      const created = await send("POST", "/api/games", body);
      location.hash = `#/game/${encodeURIComponent(created.id)}`;
    } catch (error) {
      showError(error);
    }
  },

  /** Open a new Speedquilt table ({players, bots, tempo, deal}, or the summary of one to repeat). */
  async newTable({ players, bots, tempo, deal, seats }) {
    const body = seats
      ? {
          players: seats.length,
          bots: seats.filter((s) => s.kind === "computer").map((s) => s.level),
          tempo,
        }
      : { players, bots, tempo };
    if (deal !== undefined && !seats) body.deal = deal;
    try {
      const created = await send("POST", "/api/tables", body);
      location.hash = `#/table/${encodeURIComponent(created.id)}`;
    } catch (error) {
      showError(error);
    }
  },

  /** Merge settings into the account's and keep them here. */
  async saveSettings(partial) {
    Object.assign(app.settings, partial);
    try {
      await send("PUT", "/api/settings", partial);
    } catch (error) {
      showError(error);
    }
  },

  /** The language switch: a select that changes the catalogue and saves the choice. */
  languageSelect() {
    const label = document.createElement("label");
    label.className = "language";
    const select = document.createElement("select");
    select.name = "lang";
    select.setAttribute("aria-label", t("setting.language"));
    for (const lang of LANGUAGES) {
      const option = document.createElement("option");
      option.value = lang;
      option.textContent = t(`language.${lang}`);
      option.selected = lang === language();
      select.append(option);
    }
    select.addEventListener("change", async () => {
      await loadLanguage(select.value);
      await app.saveSettings({ lang: select.value });
      redraw();
    });
    label.append(select);
    return label;
  },

  /** Load the account again (after a login, claim or logout) and draw the page anew. */
  async reload() {
    await boot();
  },
};

function showError(error) {
  const line = root.querySelector(".status-line");
  const text = errorText(error);
  if (line) {
    line.textContent = text;
    line.classList.add("error");
  }
}

function redraw() {
  if (screen) screen.build();
  else route();
}

/** Which screen the address asks for: {screen, argument}, or null for the start page. */
function screenOf(hash) {
  for (const screen of SCREENS) {
    const argument = screen.match(hash);
    if (argument !== null) return { screen, argument };
  }
  return null;
}

let routing = 0;

async function route() {
  const turn = ++routing;
  if (screen) {
    screen.stop();
    screen = null;
  }
  const wanted = screenOf(location.hash);
  if (!wanted) {
    showStart(root, app).then(() => {
      addProgressLink(root);
      addSoloStart(root);
    });
    return;
  }
  let module;
  try {
    [module] = await Promise.all([wanted.screen.load(), loadStyles(wanted.screen.styles)]);
  } catch (error) {
    // The server is gone, or was updated under an open page: say so, the page can be reloaded.
    if (turn === routing) root.textContent = `Spielcenter: ${error.message}`;
    return;
  }
  if (turn !== routing) return; // she went elsewhere while the module came
  screen = wanted.screen.make(module, wanted.argument);
  screen.start();
}

async function boot() {
  app.me = await fetchMe();
  app.settings = app.me.settings || {};
  await loadLanguage(LANGUAGES.includes(app.settings.lang) ? app.settings.lang : browserLanguage());
  document.title = t("app.title");
  route();
}

window.addEventListener("hashchange", route);
boot().catch((error) => {
  root.textContent = `Spielcenter: ${error.message}`;
});
