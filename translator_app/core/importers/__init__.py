"""Published models as ordinary bundles: Marian / OPUS-MT in the Hugging Face layout or
as an OPUS-MT release (npz), read without running anything from the download."""
