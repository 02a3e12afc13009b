"""The networks: the RNN encoder-decoder with Bahdanau or Luong attention and the
Transformer, their configuration, and ``build_model(config)``."""
