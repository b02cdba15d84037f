"""The cards as SVG: each face is drawn once, in ``<defs>``, and placed with ``<use>``.

Every kind of card can be told apart without colour: a number card shows its number (a
negative one with a minus sign and a striped foot), a hazard a warning triangle between
two bands of hazard tape, a mulligan a five-pointed star, and a face-down card a lattice
back. A *peek* back is a face-down card that the picture still names: the referee sees
every card, so the value is written small at the card's foot (the CSS variable
``--peek``, 0 or 1, hides or shows it). A *known* card is a face-down card the viewing seat
knows (rule 11.1): a back with the face drawn smaller inside a dashed gold outline, class
``known``, so that it never reads as face up.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.cards import HAZARD, MULLIGAN, Face, face_sort_key, is_face
from ..markup import markup

__all__ = ["CARD_H", "CARD_W", "card_defs", "card_ref", "face_label"]

CARD_W = 46
"""A card's width in SVG units."""
CARD_H = 64
"""A card's height in SVG units."""

_MINUS = "\u2212"
"""The minus sign, which reads better on a card than a hyphen."""


def face_label(card: Face) -> str:
    """The face as a card shows it: ``7``, ``H``, ``M``; a negative number with a true minus
    sign (U+2212), which reads better on a card than a hyphen."""
    if isinstance(card, str):
        return card
    return f"{_MINUS}{-card}" if card < 0 else str(card)


def card_ref(card: Face | None, face_up: bool, known: bool = False) -> str:
    """The id of the drawing of a card: its face when face up, a back when face down, a
    known back when ``known`` (the viewing seat knows this face-down card, rule 11.1), and
    a peek back (a back naming the card) when the picture otherwise knows what lies there.

    A ``card`` that is no face (``None``, or the stand-in ``?`` of a card nobody knows, as
    in a public-information record) is a plain back.
    """
    if not is_face(card):
        return "cb"
    key = card if isinstance(card, str) else (f"n{-card}" if card < 0 else str(card))
    if face_up:
        return f"c{key}"
    return f"ck{key}" if known else f"cb{key}"


def card_defs(
    faces: Iterable[Face], *, backs: bool = True, peeks: bool = True, known: bool = False
) -> str:
    """``<defs>`` drawing each face of ``faces`` (and the backs that the picture uses:
    ``peeks`` the referee's peek backs, ``known`` a seat's known backs)."""
    chosen = sorted(set(faces), key=face_sort_key)
    parts = ["<defs>", _PATTERNS]
    for card in chosen:
        parts.append(_face(card))
    if backs or peeks or known:
        parts.append(f'<g id="cb">{_BACK}</g>')
    if peeks:
        for card in chosen:
            parts.append(_peek(card))
    if known:
        for card in chosen:
            parts.append(_known(card))
    parts.append("</defs>")
    return "".join(parts)


_R = 5
"""Corner radius of a card."""

_PATTERNS = (
    '<pattern id="lattice" width="8" height="8" patternUnits="userSpaceOnUse">'
    '<path d="M0 0L8 8M8 0L0 8" stroke="#8fb3e0" stroke-width="1.2" opacity=".55"/></pattern>'
    '<pattern id="tape" width="10" height="10" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="5" height="10" fill="#1d1d1d"/></pattern>'
    '<pattern id="minus" width="6" height="6" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(-45)"><rect width="2.5" height="6" fill="#c0392b" '
    'opacity=".55"/></pattern>'
)

_OUTLINE = (
    f'<rect x=".5" y=".5" width="{CARD_W - 1}" height="{CARD_H - 1}" rx="{_R}" '
    'fill="{fill}" stroke="{stroke}" stroke-width="1"/>'
)

_BACK = (
    _OUTLINE.format(fill="#24477a", stroke="#0f2547")
    + f'<rect x="4" y="4" width="{CARD_W - 8}" height="{CARD_H - 8}" rx="3" '
    'fill="url(#lattice)" stroke="#c9d8ee" stroke-width="1.2"/>'
    f'<circle cx="{CARD_W / 2}" cy="{CARD_H / 2}" r="6" fill="#24477a" stroke="#c9d8ee" '
    'stroke-width="1.2"/>'
)


def _number_size(label: str) -> int:
    """The font size of a face's big number: smaller for long numbers, so that it fits."""
    return {1: 26, 2: 24, 3: 19}.get(len(label), max(9, 60 // len(label)))


def _corner(label: str, colour: str) -> str:
    size = 10 if len(label) <= 3 else 7
    return (
        f'<text x="4.5" y="12" font-size="{size}" font-weight="700" fill="{colour}">'
        f"{markup(label)}</text>"
    )


def _face(card: Face) -> str:
    """One face, as a ``<g>`` with the id :func:`card_ref` gives it."""
    ident = card_ref(card, True)
    if card == HAZARD:
        body = (
            _OUTLINE.format(fill="#ffd23f", stroke="#7a5c00")
            + f'<rect x="1" y="1" width="{CARD_W - 2}" height="9" fill="url(#tape)"/>'
            + f'<rect x="1" y="{CARD_H - 10}" width="{CARD_W - 2}" height="9" fill="url(#tape)"/>'
            + '<path d="M23 15L37.5 40H8.5Z" fill="#fff8dc" stroke="#1d1d1d" stroke-width="2.6" '
            'stroke-linejoin="round"/>'
            '<rect x="21.6" y="22.5" width="2.8" height="9.5" rx="1.2" fill="#1d1d1d"/>'
            '<circle cx="23" cy="35.8" r="1.7" fill="#1d1d1d"/>'
            f'<text x="{CARD_W / 2}" y="{CARD_H - 13}" text-anchor="middle" font-size="9" '
            'font-weight="700" fill="#1d1d1d">H</text>'
        )
        return f'<g id="{ident}" class="card hazard"><title>hazard</title>{body}</g>'
    if card == MULLIGAN:
        body = (
            _OUTLINE.format(fill="#5b2c8f", stroke="#2e1150")
            + '<path d="M23 17.5L27 28.2L38.2 28.6L29.4 35.5L32.5 46.3L23 40L13.5 46.3'
            'L16.6 35.5L7.8 28.6L19 28.2Z" fill="#ffd76e" stroke="#fff3c4" stroke-width="1"/>'
            + _corner("M", "#fff3c4")
        )
        return f'<g id="{ident}" class="card mulligan"><title>mulligan</title>{body}</g>'
    label = face_label(card)
    negative = isinstance(card, int) and card < 0
    ink = "#b0281c" if negative else "#1b2a41"
    body = _OUTLINE.format(fill="#fffdf7", stroke="#8d8a80")
    if negative:
        body += (
            f'<rect x="1" y="{CARD_H - 11}" width="{CARD_W - 2}" height="10" fill="url(#minus)"/>'
        )
    body += _corner(label, ink) + (
        f'<text x="{CARD_W / 2}" y="{CARD_H / 2 + 9}" text-anchor="middle" '
        f'font-size="{_number_size(label)}" font-weight="700" fill="{ink}">{markup(label)}</text>'
    )
    kind = "negative" if negative else "positive"
    return f'<g id="{ident}" class="card {kind}"><title>{markup(label)}</title>{body}</g>'


def _peek(card: Face) -> str:
    """A back that names its card at the foot (hidden when ``--peek`` is 0)."""
    label = _short_label(card)
    return (
        f'<g id="{card_ref(card, False)}" class="card back"><use href="#cb"/>'
        f'<g style="opacity:var(--peek,1)"><rect x="9" y="{CARD_H - 19}" width="{CARD_W - 18}" '
        f'height="14" rx="7" fill="#fffdf7" stroke="#0f2547" stroke-width=".8"/>'
        f'<text x="{CARD_W / 2}" y="{CARD_H - 8.3}" text-anchor="middle" font-size="10" '
        f'font-weight="700" fill="#1b2a41">{markup(label)}</text></g></g>'
    )


def _short_label(card: Face) -> str:
    """The face in one short word: ``7``, ``H``, ``M``."""
    return "H" if card == HAZARD else "M" if card == MULLIGAN else face_label(card)


_KNOWN_SCALE = 0.6
"""How large a known card's face is drawn on its back."""


def _known(card: Face) -> str:
    """A face-down card the viewing seat knows: its back, and its face drawn smaller in a
    dashed gold outline (never the look of a face-up card, whatever ``--peek`` says). The
    inset lets the pointer through, so that the title shown is the known card's."""
    width, height = CARD_W * _KNOWN_SCALE, CARD_H * _KNOWN_SCALE
    x, y = (CARD_W - width) / 2, (CARD_H - height) / 2
    name = "hazard" if card == HAZARD else "mulligan" if card == MULLIGAN else face_label(card)
    title = f"{name}: lies face down, known to this seat"
    return (
        f'<g id="{card_ref(card, False, known=True)}" class="card back known">'
        f"<title>{markup(title)}</title>"
        f'<use href="#cb"/><use href="#{card_ref(card, True)}" pointer-events="none" '
        f'transform="translate({x:g},{y:g}) scale({_KNOWN_SCALE:g})"/>'
        f'<rect x="{x - 1.5:g}" y="{y - 1.5:g}" width="{width + 3:g}" height="{height + 3:g}" '
        'rx="4" fill="none" stroke="#f2c14e" stroke-width="1.8" stroke-dasharray="3 2"/></g>'
    )
