"""Teach: the dialog, the fine-tune process it runs, the words it reports."""
