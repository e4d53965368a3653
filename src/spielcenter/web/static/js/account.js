// The account box of the start page: a guest may claim the account with a name and a password or
// log in to another one; a named account may log out here or everywhere.

import { send } from "./api.js";
import { has, t } from "./i18n.js";

function field(name, type, label) {
  const wrap = document.createElement("label");
  const input = document.createElement("input");
  input.name = name;
  input.type = type;
  input.required = true;
  input.autocomplete = type === "password" ? "current-password" : "username";
  wrap.append(label, input);
  return wrap;
}

function form(kind, title, onSubmit) {
  const el = document.createElement("form");
  el.className = `account-form ${kind}`;
  const heading = document.createElement("h3");
  heading.textContent = title;
  const submit = document.createElement("button");
  submit.type = "submit";
  submit.textContent = title;
  el.append(
    heading,
    field("name", "text", t("account.name")),
    field("password", "password", t("account.password")),
    submit,
  );
  el.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(el));
    onSubmit({ name: String(data.name), password: String(data.password) });
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

  async function act(path, body) {
    try {
      await send("POST", path, body);
      changed();
    } catch (error) {
      const key = `error.${error.code}`;
      message.textContent = has(key) ? t(key) : error.message || t("error.unknown");
    }
  }

  if (me.guest) {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = t("account.manage");
    details.append(
      summary,
      form("claim", t("account.claim"), (body) => act("/api/account/claim", body)),
      form("login", t("account.login"), (body) => act("/api/account/login", body)),
    );
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
