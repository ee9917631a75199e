"""Tournament backups: the export document (``document``), its checks
(``checks``) and the restore (``restore``)."""
