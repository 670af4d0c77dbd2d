import pytest

from engine.config import EngineConfig
from engine.errors import ConfigError


def test_given_file_env_and_overrides_then_later_wins(tmp_path):
    cfg = tmp_path / "t.toml"
    cfg.write_text('[taxogen]\nstore = "a"\nmax_ladder = 5\n[taxogen.endpoint]\nenabled = true\ntimeout_s = 3\n')
    c = EngineConfig.load(cfg, env={"TAXOGEN_STORE": "b", "TAXOGEN_OFFLINE": "yes"}, overrides={"max_ladder": 7})
    assert str(c.store) == "b" and c.max_ladder == 7
    assert c.endpoint.enabled and c.endpoint.offline and c.endpoint.timeout_s == 3.0


def test_given_defaults_then_embedded_store_and_shipped_model():
    c = EngineConfig.load(env={})
    assert c.store is None and c.model == "shipped" and not c.endpoint.enabled


@pytest.mark.parametrize(
    "text,match",
    [
        ("[taxogen]\nstoer = 'x'\n", "unknown setting taxogen.stoer"),
        ("[taxogen]\nmax_ladder = 'many'\n", "bad value"),
        ("[taxogen]\nchain_mode = 'magic'\n", "chain_mode"),
        ("[taxogen.endpoint]\nenabled = 'perhaps'\n", "bad value"),
        ("not toml = = =", "cannot read config"),
    ],
)
def test_given_bad_config_then_config_error(tmp_path, text, match):
    cfg = tmp_path / "t.toml"
    cfg.write_text(text)
    with pytest.raises(ConfigError, match=match):
        EngineConfig.load(cfg, env={})


def test_given_missing_file_then_config_error(tmp_path):
    with pytest.raises(ConfigError):
        EngineConfig.load(tmp_path / "missing.toml", env={})
