"""Printable files of a tournament: the reads that turn its rows into sheet data, and the views.

Vocabulary: *print reads* (``data``) read the database with planned queries
and return the plain data of :mod:`printing`; *files* (``files``) are
the PDFs of a round's score sheets, the standings and the final report;
the views (``views``, routed by ``urls``) answer them over HTTP. Drawing
is :mod:`printing`' job.
"""
