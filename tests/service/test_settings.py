"""The service's settings model: every variable checked against its meaning, every bad value one
error naming the variable and the value (and never another exception)."""

from __future__ import annotations

import math
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from hallucheck.service.settings import ENV_VARS, Settings, SettingsError

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("var", "value"), [
    ("HALLUCHECK_RETENTION_DAYS", "-1"), ("HALLUCHECK_RETENTION_DAYS", "1e-9"),
    ("HALLUCHECK_RETENTION_DAYS", "nan"), ("HALLUCHECK_RETENTION_DAYS", "inf"),
    ("HALLUCHECK_RETENTION_DAYS", "0.5"), ("HALLUCHECK_RETENTION_DAYS", "ninety"),
    ("HALLUCHECK_MAX_BODY_BYTES", "-1"), ("HALLUCHECK_MAX_BODY_BYTES", "0"),
    ("HALLUCHECK_MAX_ANSWER_CHARS", "-1"), ("HALLUCHECK_RATE_PER_SECOND", "-5"),
    ("HALLUCHECK_RATE_PER_SECOND", "nan"), ("HALLUCHECK_RATE_BURST", "-1"), ("HALLUCHECK_WORKERS", "0"),
    ("HALLUCHECK_WORKERS", "-3"), ("HALLUCHECK_REQUEST_TIMEOUT", "inf"), ("HALLUCHECK_REQUEST_TIMEOUT", "0"),
    ("HALLUCHECK_MAX_BATCH_CASES", "many"), ("HALLUCHECK_WORKERS", "4.5"),
    ("HALLUCHECK_STREAM_WORK_BUDGET", "-1"), ("HALLUCHECK_MAX_CONTEXTS", "0"),
    ("HALLUCHECK_DB_URL", "mysql://root:secret@db/checks"), ("HALLUCHECK_TRUSTED_PROXIES", "not-an-ip"),
    ("HALLUCHECK_CORS_ORIGINS", "evil"), ("HALLUCHECK_PLUGINS", "no such module"),
    ("HALLUCHECK_AUTH", "maybe"), ("HALLUCHECK_API_KEYS", " , ,"), ("HALLUCHECK_API_KEYS", "   "),
    ("HALLUCHECK_DETECTORS", " , "),
])
def test_a_bad_value_is_one_error_naming_the_variable_and_the_value(var, value):
    with pytest.raises(SettingsError) as info:
        Settings.from_env({var: value})
    message = str(info.value)
    assert message.startswith(f"{var}=") and info.value.variable == var
    assert "\n" not in message
    if var == "HALLUCHECK_DB_URL":
        assert "secret" not in message and "mysql" in message
    elif var != "HALLUCHECK_API_KEYS":
        assert repr(value) in message


def test_good_values_and_the_off_spellings():
    s = Settings.from_env({"HALLUCHECK_RETENTION_DAYS": "30", "HALLUCHECK_RATE_PER_SECOND": "0",
                           "HALLUCHECK_WORKERS": "8", "HALLUCHECK_TRUSTED_PROXIES": "10.0.0.1, 10.1.0.0/16",
                           "HALLUCHECK_CORS_ORIGINS": "https://a.example:8443", "HALLUCHECK_MAX_CONTEXTS": "50"})
    assert (s.retention_days, s.rate_per_second, s.workers, s.max_contexts) == (30.0, 0.0, 8, 50)
    for off in ("off", "0", "", "none"):
        assert Settings.from_env({"HALLUCHECK_RETENTION_DAYS": off}).retention_days is None
    assert Settings(retention_days=0).retention_days is None
    assert Settings.from_env({"HALLUCHECK_WARMUP": "off"}).warmup == ()
    assert Settings().with_(workers=2).workers == 2
    with pytest.raises(SettingsError):
        Settings().with_(workers=0)


def test_a_key_source_that_yields_no_key_is_an_error(tmp_path):
    empty = tmp_path / "empty.keys"
    empty.write_text("")
    comments = tmp_path / "comments.keys"
    comments.write_text("# no keys yet\n\n   # still none\n")
    binary = tmp_path / "latin1.keys"
    binary.write_bytes(b"k1 sha256:\xe9\xe9\n")
    bad = tmp_path / "bad.keys"
    bad.write_text("k1 md5:abc\n")
    for path, words in ((empty, "holds no key"), (comments, "holds no key"), (binary, "not UTF-8"),
                        (bad, "bad.keys:1"), (tmp_path / "missing.keys", "No such file")):
        with pytest.raises(SettingsError) as info:
            Settings.from_env({"HALLUCHECK_API_KEYS_FILE": str(path)})
        assert info.value.variable == "HALLUCHECK_API_KEYS_FILE" and words in str(info.value), str(info.value)
    good = tmp_path / "good.keys"
    good.write_text("k1 sha256:" + "0" * 64 + "\n")
    assert Settings.from_env({"HALLUCHECK_API_KEYS_FILE": str(good)}).api_keys_file == str(good)


def test_every_setting_is_in_the_docs_with_its_range():
    text = (ROOT / "docs" / "service.md").read_text("utf-8")
    for var in ENV_VARS.values():
        rows = [line for line in text.splitlines() if line.startswith(f"| `{var}`")]
        assert rows, f"{var} is not in the settings table of docs/service.md"


# ---- property: any value of any variable gives settings or one SettingsError ----------------------

_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
_numberish = st.one_of(
    st.integers(min_value=-10**30, max_value=10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["nan", "inf", "-inf", "1e309", "0x10", "1_000", " 7 ", "", "off", "auto", "on", "1e-9",
                     "9" * 5000, "-0", "+5", "٣"]),
)
_listish = st.lists(st.text(alphabet=string.ascii_letters + string.digits + "._-:/*", max_size=12),
                    max_size=4).map(", ".join)


@hyp_settings(max_examples=400, deadline=None)
@given(var=st.sampled_from(sorted(ENV_VARS.values())), value=st.one_of(_text, _numberish, _listish))
def test_any_value_gives_valid_settings_or_one_clear_error(var, value):
    try:
        s = Settings.from_env({var: value})
    except SettingsError as exc:
        assert exc.variable == var
        assert str(exc).startswith(f"{var}=") and "\n" not in str(exc)
        return
    for name in ("rate_per_second", "request_timeout_s", "header_timeout_s", "body_timeout_s", "stream_work_s"):
        assert math.isfinite(getattr(s, name)) and getattr(s, name) >= 0
    assert s.retention_days is None or (math.isfinite(s.retention_days) and s.retention_days >= 1)
    assert s.workers >= 1 and s.rate_burst >= 1 and s.max_body_bytes >= 256 and s.max_answer_chars >= 1
    assert s.api_keys == () or all(s.api_keys)
