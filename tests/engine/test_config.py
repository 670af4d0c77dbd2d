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


def test_given_no_timeout_setting_then_engine_and_client_share_one_default():
    import dataclasses

    from engine.config import EndpointSettings
    from kg.remote import DEFAULT_TIMEOUT_S, EndpointConfig

    settings = EngineConfig.load(env={}).endpoint
    assert settings.timeout_s == EndpointConfig(url="http://x").timeout_s == DEFAULT_TIMEOUT_S == 20.0
    # every client setting is the client's own field, with the client's default
    client = settings.client_config()
    assert isinstance(settings, EndpointConfig) and type(client) is EndpointConfig
    shared = [f.name for f in dataclasses.fields(EndpointConfig) if f.name != "url"]
    assert all(getattr(client, n) == getattr(EndpointConfig(url="http://x"), n) for n in shared)
    assert client.url == EndpointSettings().url == "https://query.wikidata.org/sparql"


def test_given_an_endpoint_timeout_then_the_client_gets_it(tmp_path):
    cfg = tmp_path / "t.toml"
    cfg.write_text("[taxogen.endpoint]\ntimeout_s = 7\n")
    assert EngineConfig.load(cfg, env={}).endpoint.client_config().timeout_s == 7.0
