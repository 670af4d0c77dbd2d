from engine.generate.sources.base import DocumentState
from engine.generate.sources.code import CodeSource
from engine.types import EntityType, Span


def test_given_code_then_only_the_mask():
    result = CodeSource().generate(Span("AB-1234", EntityType.CODE), DocumentState())
    assert result.candidates == [] and "masked" in result.reason
