"""Every language is complete, covers every string marked in the code, and the
committed .mo files match their .po."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

BASE = Path(settings.BASE_DIR)
LOCALE = BASE / "locale"
LANGS = [code for code, _name in settings.LANGUAGES if code != "en"]


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_is_complete_and_compiled(lang, tmp_path):
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    mo = tmp_path / "django.mo"
    out = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", str(mo), str(po)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "untranslated" not in out.stderr and "fuzzy" not in out.stderr, out.stderr
    assert mo.read_bytes() == (po.parent / "django.mo").read_bytes(), "run compilemessages"


@pytest.fixture(scope="module")
def marked_strings(tmp_path_factory):
    """A template (.pot) of every string marked in the code, as makemessages finds it.

    makemessages runs in a scratch root that mirrors the project (its top-level
    entries linked, so the same files are found) with an empty locale dir, so
    the committed catalogues are never touched. A folder holding templates is
    copied rather than linked: makemessages writes a temporary .py beside each.
    """
    root = tmp_path_factory.mktemp("makemessages")
    for entry in BASE.iterdir():
        if entry.name.startswith(".") or entry.name == "locale":
            continue
        if entry.is_dir() and any(f.suffix in {".html", ".txt"} for f in entry.rglob("*")):
            shutil.copytree(entry, root / entry.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (root / entry.name).symlink_to(entry)
    (root / "locale").mkdir()
    cwd = Path.cwd()
    os.chdir(root)
    try:
        with override_settings(LOCALE_PATHS=[]):
            call_command(
                "makemessages", locale=[LANGS[0]], keep_pot=True, symlinks=True, verbosity=0
            )
    finally:
        os.chdir(cwd)
    return root / "locale" / "django.pot"


def _msgid_at(lines: list[str], number: int) -> str:
    """The msgid (with any plural) of the entry whose msgstr msgcmp points at, as one line."""
    block: list[str] = []
    for line in reversed(lines[: number - 1]):
        block.insert(0, line)
        if line.startswith("msgid "):
            break
    return " ".join(block)


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_covers_every_marked_string(lang, marked_strings):
    # msgcmp counts an untranslated or fuzzy entry as missing; entries the code
    # no longer uses are only warnings (makemessages --no-obsolete drops them).
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    out = subprocess.run(
        ["msgcmp", str(po), str(marked_strings)], capture_output=True, text=True, check=False
    )
    lines = marked_strings.read_text(encoding="utf-8").splitlines()
    missing = [
        _msgid_at(lines, int(n))
        for n in re.findall(r"django\.pot:(\d+): this message is used but not defined", out.stderr)
    ]
    assert not missing, (
        f"{lang}: marked in the code but not translated (run makemessages, translate, "
        "compilemessages):\n" + "\n".join(missing)
    )
    assert out.returncode == 0, out.stderr


def _translations(lang: str) -> list[tuple[str, str]]:
    """Each entry's (msgid, msgstr) of a catalogue, the plural forms joined; a
    plain reading of the .po format, header left out."""
    pairs: list[tuple[str, str]] = []
    msgid: list[str] = []
    msgstr: list[str] = []
    into: list[str] | None = None
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    for line in [*po.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith(("msgid ", "msgctxt ")) or not line.strip():
            if msgstr and "".join(msgid):
                pairs.append(("".join(msgid), " ".join(msgstr)))
            if line.strip():
                msgid, msgstr = [], []
        if line.startswith("msgid "):
            into = msgid
        elif line.startswith("msgstr"):
            msgstr.append("")
            into = msgstr
        elif line.startswith(("msgid_plural", "#")):
            into = None
        if into is not None and '"' in line:
            text = line[line.index('"') + 1 : line.rindex('"')]
            if into is msgstr:
                msgstr[-1] += text
            else:
                into.append(text)
    return pairs


# One word for one thing: a player's rating is a "Wertung" in German (as its
# list, its history and its figures are: Wertungsliste, Wertungsverlauf,
# Wertungszahl), and a game is a "parti" in Swedish ("spel" is the play itself).
TERMS_AVOIDED = {
    "de": re.compile(r"Rating"),
    "sv": re.compile(
        r"\b[Ss]pel(et|en|ets|s|ens|slut|nummer|numret|poäng|poängen|rating|ratingar)?\b"
    ),
}
# Where the word means something else: "before play starts".
TERMS_ALLOWED = {"sv": {"Before play only: each takes the other's seat."}}


@pytest.mark.parametrize("lang", sorted(TERMS_AVOIDED))
def test_one_word_for_one_thing(lang):
    pairs = _translations(lang)
    assert len(pairs) > 1000
    mixed = [
        f"{msgid!r}: {msgstr!r}"
        for msgid, msgstr in pairs
        if TERMS_AVOIDED[lang].search(msgstr) and msgid not in TERMS_ALLOWED.get(lang, set())
    ]
    assert not mixed, "\n".join(mixed)
