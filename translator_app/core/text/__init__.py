"""Text in and out of the model: SentencePiece tokenizers (one shared, or Marian's pair)
with character spans per piece, and sentence splitting that keeps a document's layout."""
