"""What every part of the window shares: fitting the screen, settings, notices, the model list, where file dialogs start, the theme."""
