"""Every SVG and HTML the library writes parses, whatever text the record holds: players'
names with control characters, U+FFFE, lone surrogates; the one escaping function is
:func:`gnoming_rules.markup.markup` (a property test over any text)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gnoming_rules as gr
from gnoming_rules.corpus.html import Section, page
from gnoming_rules.markup import markup
from gnoming_rules.pictures.replay import replay_html
from gnoming_rules.pictures.table import table_svg
from gnoming_rules.play.bots import play_game
from gnoming_rules.referee.validate import replay_record

RULES = gr.load_ruleset("quick")
RECORD, FINAL = play_game(RULES, 3, seed=3, ruleset_ref="quick")

HOSTILE = st.sampled_from(["\x00", "\x1b", "\x7f", "\x85", "\ufffe", "\uffff", "\ud800", "\udfff"])
TEXT = st.text(st.one_of(st.characters(), HOSTILE, st.sampled_from("<>&\"'")), max_size=12)
"""Any text, with the characters XML forbids and the markup characters drawn often."""

NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def well_formed_html(text: str) -> None:
    """UTF-8 can hold it, no character XML forbids, and Python's parser reads it through."""
    text.encode("utf-8")  # a lone surrogate would raise here
    assert not NOT_XML.search(text)

    class Checked(HTMLParser):
        def error(self, message: str) -> None:  # pragma: no cover - older Pythons
            raise AssertionError(message)

    parser = Checked()
    parser.feed(text)
    parser.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(st.one_of(st.characters(), HOSTILE)))
def test_markup_leaves_nothing_xml_refuses(text: str) -> None:
    shown = markup(text)
    assert not NOT_XML.search(shown)
    assert not set("<>\"'") & set(shown)
    ET.fromstring(f'<t a="{shown}">{shown}</t>')  # as content and as an attribute


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TEXT, min_size=3, max_size=3))
def test_pictures_and_pages_parse_whatever_the_names(names: list[str]) -> None:
    record: Any = RECORD.model_copy(update={"players": names})
    svg = table_svg(RULES, FINAL, names=names)
    svg.encode("utf-8")
    ET.fromstring(svg)  # well-formed XML
    replay = replay_record(record)
    assert replay.verdict.valid
    well_formed_html(replay_html(replay, title=names[0]))
    section = Section(names[1], [names[2]], tables=[([names[0]], [(names[1],)])])
    well_formed_html(page(names[0], [names[1]], [section]))
