"""Every language is complete, and the committed .mo files match their .po."""

import subprocess
from pathlib import Path

import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
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
