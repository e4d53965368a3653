// The view settings of the table (the gear): lamp light or linen by the window, living-room sounds,
// "auto-continue when no die fits" while giving, and the tempo of new tables. Kept per account
// (PUT /api/settings: table_theme, sounds, clock_beep, auto_continue, tempo).

import { t } from "./i18n.js";

export const THEMES = ["lamp", "linen"];
export const TEMPOS = ["slow", "normal", "fast"];

/** The table's settings from the account's, with their defaults. */
export function tableSettings(settings) {
  return {
    table_theme: THEMES.includes(settings.table_theme) ? settings.table_theme : "lamp",
    sounds: settings.sounds ?? true,
    clock_beep: settings.clock_beep ?? true,
    auto_continue: Boolean(settings.auto_continue),
    tempo: TEMPOS.includes(settings.tempo) ? settings.tempo : "normal",
  };
}

function radioGroup(name, values, current, labelKey, onChange) {
  const group = document.createElement("fieldset");
  group.className = `setting-${name}`;
  const legend = document.createElement("legend");
  legend.textContent = t(labelKey);
  group.append(legend);
  for (const value of values) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "radio";
    input.name = name;
    input.value = value;
    input.checked = value === current;
    input.addEventListener("change", () => onChange(value));
    label.append(input, " " + t(`sq.${name}.${value}`));
    group.append(label);
  }
  return group;
}

export function checkbox(name, checked, labelKey, onChange) {
  const label = document.createElement("label");
  label.className = `setting-${name}`;
  const input = document.createElement("input");
  input.type = "checkbox";
  input.name = name;
  input.checked = checked;
  input.addEventListener("change", () => onChange(input.checked));
  label.append(input, " " + t(labelKey));
  return label;
}

/**
 * The settings dialog.
 * @param current tableSettings(...)
 * @param onChange (partial) => void — applies and saves one change
 * @param onClose () => void
 */
export function settingsDialog(current, onChange, onClose) {
  const box = document.createElement("section");
  box.className = "sq-settings";
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", t("sq.settings"));
  const title = document.createElement("h2");
  title.textContent = t("sq.settings");
  const close = document.createElement("button");
  close.type = "button";
  close.className = "settings-close primary";
  close.textContent = t("sq.done");
  close.addEventListener("click", onClose);
  box.append(
    title,
    radioGroup("table_theme", THEMES, current.table_theme, "sq.setting.theme", (v) =>
      onChange({ table_theme: v }),
    ),
    checkbox("sounds", current.sounds, "sq.setting.sounds", (v) => onChange({ sounds: v })),
    checkbox("clock_beep", current.clock_beep, "sq.setting.clock_beep", (v) =>
      onChange({ clock_beep: v }),
    ),
    checkbox("auto_continue", current.auto_continue, "sq.setting.auto_continue", (v) =>
      onChange({ auto_continue: v }),
    ),
    radioGroup("tempo", TEMPOS, current.tempo, "sq.setting.tempo", (v) => onChange({ tempo: v })),
    close,
  );
  return box;
}
