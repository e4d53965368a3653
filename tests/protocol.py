"""What a client does with the socket protocol, for the tests that read it as the browser does."""

from __future__ import annotations

from typing import Any


def apply_changes(view: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """The view after an event's ``changes`` (docs/protocol.md, "What changed"; the browser's
    ``applyChanges``): whole fields, then single items of lists that kept their length."""
    after = {**view, **changes["fields"]}
    for name, items in changes.get("items", {}).items():
        after[name] = list(view[name])
        for index, item in items.items():
            after[name][int(index)] = item
    return after
