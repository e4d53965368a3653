// The Spielcenter client: loads the account and the catalogue, then shows the start page (#/) or
// a game (#/game/<id>). No build step; every module is a plain ES module.

import { fetchMe, send } from "./api.js";
import { errorText } from "./errors.js";
import { browserLanguage, LANGUAGES, language, loadLanguage, t } from "./i18n.js";
import { showStart } from "./start.js";
import { GameScreen } from "./game.js";
import { TableScreen } from "./speedquilt-table.js";
import { addProgressLink, ProgressScreen, progressRoute } from "./progress.js";
import { addSoloStart, SoloScreen } from "./speedquilt-solo.js";
import { JoinScreen, LobbyScreen } from "./speedquilt-lobby.js";
import { TalerScreen } from "./taler.js";

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

function route() {
  const match = /^#\/game\/(.+)$/.exec(location.hash);
  if (screen) {
    screen.stop();
    screen = null;
  }
  const table = /^#\/table\/(.+)$/.exec(location.hash);
  const solo = /^#\/solo\/(.+)$/.exec(location.hash);
  if (solo) {
    // A campaign stage or a daily quilt: the table screen on a stored game.
    screen = new SoloScreen(root, decodeURIComponent(solo[1]), app);
    screen.start();
  } else if (table) {
    screen = new TableScreen(root, decodeURIComponent(table[1]), app);
    screen.start();
  } else if (match) {
    screen = new GameScreen(root, decodeURIComponent(match[1]), app);
    screen.start();
  } else if ((screen = lobbyScreen())) {
    // Tables with people: the lobby, an invitation's join screen, the account's taler.
    screen.start();
  } else if (progressRoute(location.hash)) {
    screen = new ProgressScreen(root, progressRoute(location.hash), app);
    screen.start();
  } else {
    showStart(root, app).then(() => {
      addProgressLink(root);
      addSoloStart(root);
    });
  }
}

function lobbyScreen() {
  const join = /^#\/join\/(.+)$/.exec(location.hash);
  if (join) return new JoinScreen(root, decodeURIComponent(join[1]), app);
  if (location.hash === "#/lobby") return new LobbyScreen(root, app);
  if (location.hash === "#/taler") return new TalerScreen(root, app);
  return null;
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
