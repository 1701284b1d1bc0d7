"""The carnet in one file (issue 30; docs/carnet-file.md): « Télécharger mon carnet » writes
every list, army book, gang ledger and campaign a carnet holds as one JSON document
(`models.CarnetFile`, format version 1, its JSON Schema in docs/carnet-file.schema.json);
« Restaurer un carnet » brings such a file into a carnet as new lists, books and campaigns,
overwriting nothing (`restore.py`)."""
