"""QR codes for the pages (the carnet link, scanned by a phone): Segno, a maintained
pure-Python encoder that writes SVG, so no image library and no script."""

import segno
from markupsafe import Markup


def qr_svg(text: str, label: str) -> Markup:
    """An inline SVG QR code of `text`, named `label` for screen readers. Error correction
    M (15 %): readable off a screen; about 4 px a module, 37 modules for a carnet link."""
    code = segno.make(text, error="m", micro=False)
    svg = code.svg_inline(scale=4, border=2, title=label, svgclass="qr", lineclass=None)
    return Markup(svg.replace("<svg ", '<svg role="img" ', 1))
