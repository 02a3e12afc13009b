"""The secondary dialogs: settings, history, glossary, corrections, Compare models."""
