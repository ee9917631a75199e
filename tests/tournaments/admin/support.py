"""Reading an admin page's form back as the POST a browser would send."""

from __future__ import annotations

from html import unescape
from html.parser import HTMLParser


class _FormReader(HTMLParser):
    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._select_first: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside or ("name" not in a and tag != "option"):
            return
        if tag == "input":
            kind = a.get("type", "text")
            if kind in ("submit", "button", "file", "image"):
                return
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.data[a["name"]] = a.get("value", "on")
                return
            self.data[a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select, self._select_first = a["name"], None
        elif tag == "option" and self._select is not None:
            if self._select_first is None:
                self._select_first = a.get("value", "")
                self.data.setdefault(self._select, self._select_first)
            if "selected" in a:
                self.data[self._select] = a.get("value", "")
        elif tag == "textarea":
            self._textarea = a["name"]
            self.data[a["name"]] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            # Django starts a textarea's content with a newline that browsers drop.
            self.data[self._textarea] += unescape(data).removeprefix("\n")


def form_data(html: str, form_id: str) -> dict[str, str]:
    """The named fields of the form ``form_id`` with the values the page shows."""
    reader = _FormReader(form_id)
    reader.feed(html)
    return reader.data
