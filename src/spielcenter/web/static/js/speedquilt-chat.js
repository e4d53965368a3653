// The table's chat (tables with people): the last lines and a line to write. Chat is plain
// text and goes into the page as text, never as HTML. A table without chat shows a clear note.

import { t } from "./i18n.js";
import { button, el } from "./dom.js";

/** What she is typing at each screen, and whether the field has her cursor: the table redraws
 * with every move, and both survive it. */
const drafts = new WeakMap();

function draftOf(screen) {
  if (!drafts.has(screen)) drafts.set(screen, { text: "", focused: false });
  return drafts.get(screen);
}

/** The chat panel of the table screen `screen` (its chat lines, seat and socket). */
export function chatPanel(screen) {
  const box = el("section", "sq-chat");
  box.append(el("h2", "", t("sq.tab.chat")));
  const lines = screen.chat ?? [];
  if (!lines.length) {
    // "Nobody writes back" only where no other person sits.
    const others = (screen.table?.seats ?? []).filter(
      (s) => s.kind === "human" && s.seat !== screen.seat,
    );
    const empty = others.length ? "sq.chat_empty" : "sq.chat_empty_computers";
    box.append(el("p", "muted chat-empty", t(empty)));
  }
  const list = el("ol", "chat-lines");
  for (const line of lines) {
    // Chat is plain text: it goes in as text, never as HTML.
    const item = el("li", "", "");
    item.append(el("strong", "", `${line.name ?? screen.nameOf(line.seat, true)}: `), line.text);
    list.append(item);
  }
  box.append(list);
  if (screen.chat !== null && screen.seat !== null) {
    const form = el("form", "chat-form");
    const input = el("input");
    input.name = "chat";
    input.maxLength = 200;
    input.setAttribute("aria-label", t("sq.chat_write"));
    input.placeholder = t("sq.chat_write");
    // The table redraws with every move: what she is typing, and her cursor, survive it.
    const draft = draftOf(screen);
    input.value = draft.text;
    input.addEventListener("input", () => (draft.text = input.value));
    input.addEventListener("focus", () => (draft.focused = true));
    input.addEventListener("blur", () => {
      // Chromium blurs the field while the redraw removes it, before it is disconnected: only
      // once the redraw is over can a blur that she made be told from one the redraw made.
      queueMicrotask(() => {
        if (input.isConnected) draft.focused = false;
      });
    });
    if (draft.focused) queueMicrotask(() => input.focus({ preventScroll: true }));
    form.append(input, button(t("sq.chat_send"), "chat-send", () => form.requestSubmit()));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      // The draft, not this field: a line may arrive, and redraw the panel, between her typing
      // and her sending; what she typed went into the draft even if the field was replaced.
      const text = draft.text.trim();
      if (text && screen.socket.send({ type: "table.chat", text })) {
        draft.text = "";
        input.value = "";
      }
    });
    box.append(form);
  }
  return box;
}

