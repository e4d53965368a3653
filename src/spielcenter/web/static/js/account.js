// The account box of the start page: a guest may claim the account with a name and a password or
// log in to another one; a named account may log out here or everywhere.

import { send } from "./api.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";

/** The server's rules for a new name and password (services/accounts.py), said up front. */
const NAME_LENGTH = { min: 3, max: 24 };
const PASSWORD_LENGTH = { min: 8, max: 256 };

function field(name, type, label, rule, autocomplete) {
  const wrap = document.createElement("label");
  const input = document.createElement("input");
  input.name = name;
  input.type = type;
  input.required = true;
  input.autocomplete = autocomplete;
  wrap.append(label, input);
  if (rule) {
    // Shown before she submits: a refusal should never be the first she hears of a rule.
    const note = document.createElement("small");
    note.className = "field-rule";
    note.id = `${autocomplete}-${name}-rule`;
    note.textContent = rule;
    input.setAttribute("aria-describedby", note.id);
    if (name === "password") input.minLength = PASSWORD_LENGTH.min;
    wrap.append(note);
  }
  return wrap;
}

/**
 * A form of the account box; `onSubmit(body, say)` sends it, `say(text)` writes a refusal
 * under this form (not under another one).
 */
function form(kind, title, onSubmit) {
  const el = document.createElement("form");
  el.className = `account-form ${kind}`;
  const heading = document.createElement("h3");
  heading.textContent = title;
  const submit = document.createElement("button");
  submit.type = "submit";
  submit.textContent = title;
  const message = document.createElement("p");
  message.className = "account-message";
  message.setAttribute("role", "status");
  const claiming = kind === "claim";
  el.append(
    heading,
    field(
      "name",
      "text",
      t("account.name"),
      claiming ? t("account.name_rule", NAME_LENGTH) : null,
      claiming ? "new-name" : "username",
    ),
    field(
      "password",
      "password",
      t("account.password"),
      claiming ? t("account.password_rule", PASSWORD_LENGTH) : null,
      claiming ? "new-password" : "current-password",
    ),
    submit,
    message,
  );
  el.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(el));
    message.textContent = "";
    onSubmit({ name: String(data.name), password: String(data.password) }, (text) => {
      message.textContent = text;
    });
  });
  return el;
}

/**
 * The account box for `me` (from GET /api/me). `changed()` is called after the account or the
 * session changed, so the page can load again.
 */
export function accountBox(me, changed) {
  const box = document.createElement("section");
  box.className = "account";
  const who = document.createElement("p");
  who.className = "who";
  who.textContent = me.guest ? t("account.guest") : t("account.named", { name: me.name });
  const message = document.createElement("p");
  message.className = "account-message";
  message.setAttribute("role", "status");
  box.append(who);

  /** Send a request; a refusal is said in her language where she acted. */
  async function act(path, body, say = (text) => (message.textContent = text)) {
    try {
      await send("POST", path, body);
      changed();
    } catch (error) {
      say(errorText(error, { serverWords: false }));
    }
  }

  if (me.guest) {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = t("account.manage");
    // The forms open over the page below the box, so the header does not grow and leave an
    // empty band beside it.
    const panel = document.createElement("div");
    panel.className = "account-panel";
    panel.append(
      form("claim", t("account.claim"), (body, say) => act("/api/account/claim", body, say)),
      form("login", t("account.login"), (body, say) => act("/api/account/login", body, say)),
    );
    details.append(summary, panel);
    box.append(details);
  } else {
    const out = document.createElement("button");
    out.type = "button";
    out.className = "logout";
    out.textContent = t("account.logout");
    out.addEventListener("click", () => act("/api/account/logout"));
    const all = document.createElement("button");
    all.type = "button";
    all.className = "logout-all";
    all.textContent = t("account.logout_all");
    all.addEventListener("click", () => act("/api/account/logout-all"));
    box.append(out, all);
  }
  box.append(message);
  return box;
}
