"""Published models fetched from inside the app: the catalogue (what is offered), the
transfer of one file (resumed, size- and checksum-checked) and getting a whole model into
the user's models folder (downloaded, checked, imported)."""
