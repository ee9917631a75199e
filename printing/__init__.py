"""The PDF engine: score sheets, standings and reports from plain data. Nothing here
reads the database.

Vocabulary:

* A *sheet* is one printed page for one match, or one blank pad page: the
  heading, the seated players, the *grid* (a row per game; per player the
  columns rack points, jokers and game score; a totals row), the signature
  boxes and the rules reminder. Its data is a :class:`~.data.Sheet`, a plain
  dict read by the caller (the engine never reads the database); a
  :class:`~.data.SheetSet` is the sheets printed together, one PDF.
* A *layout* (:class:`~.layout.SheetLayout`) is a sheet's geometry in
  millimetres for one paper size, table size and number of games. Lines,
  shades and starting seat marks are drawn once per layout as one SVG, the
  *grid picture*, used as a CSS background; words are absolutely placed over it.
* A sheet is printed in two *layers*. The *static layer* is what every sheet
  of a round shares (grid picture, tournament, round, date, column labels,
  game numbers, starting seats, signature boxes, rules reminder): it is laid
  out once and drawn on every page as one shared PDF form XObject. The *page
  layer* is what differs from table to table: the table number, the entry
  link and the players' names. WeasyPrint's cost grows with the text boxes it
  lays out (about 1 ms each, plus about 3.5 ms a page), so a page layer of six
  boxes is several times cheaper than a whole sheet. The QR code is drawn into
  each page in PDF operators, a rectangle per run of dark modules: vector, and
  no work for WeasyPrint.

Modules: ``data`` (the plain data), ``layout`` (millimetres, the grid
picture, the CSS placing the words), ``fonts`` (text widths without a
layout), ``qr`` (the entry link's code), ``render`` (HTML to PDF with
WeasyPrint, the layers), ``sheet_sets`` (a set's page layers in chunks of
pages), ``join`` (the chunks joined over their static layers with pypdf's
public API), ``pad`` (the blank club pad).

The standings and the final report are not laid out by WeasyPrint at all:
``table_layout`` places their rows, headings and match boxes in Python and
pages them, and ``drawn`` writes the pages as PDF operators with DejaVu
subsets cut by fontTools (``font_subsets``; thousands of lines cost
WeasyPrint about a millisecond each; drawn, microseconds).

Everything runs in the calling process and thread: nothing here forks or
starts a process, and renders in several threads never wait for each
other. Nothing here imports ``django.db`` or ``tournaments``; Django is used
for templates, static files and translation only.
"""
