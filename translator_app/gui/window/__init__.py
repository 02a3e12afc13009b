"""The main window and what assembles it: menus, files, the word menu, dialogs, the model chooser, recent files, the importer, the app's start."""
