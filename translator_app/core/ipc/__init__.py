"""What crosses between the app and the trainer's process: progress lines and
translation files."""
