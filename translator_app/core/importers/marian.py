"""Import published Marian models (OPUS-MT, Helsinki-NLP) as ordinary bundles.

Two layouts are read, both without running any code from the download:

* a Hugging Face folder: ``config.json``, ``model.safetensors`` (or ``pytorch_model.bin``,
  read with ``torch.load(weights_only=True)``), ``source.spm``, ``target.spm``,
  ``vocab.json``;
* an OPUS-MT release folder or zip: ``*.npz`` (read with ``allow_pickle=False``),
  ``source.spm``, ``target.spm``, ``*.vocab.yml`` and ``decoder.yml`` (see
  :mod:`translator_app.core.importers.marian_npz`).

The network is our Transformer configured as Marian's (post-norm, SiLU, sines-then-cosines
positions, output bias, decoding from the padding id); sizes come from the download's own
configuration. Every problem is one :class:`MarianImportError` naming the file.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import torch

from translator_app.core.engine.batching import pad_rows
from translator_app.core.engine.bundle_format import SearchDefaults
from translator_app.core.engine.bundle_torch import save_bundle
from translator_app.core.engine.model_card import architecture_lines, card_data, render
from translator_app.core.engine.search import SearchOptions, greedy_search
from translator_app.core.importers.marian_common import (
    MarianImportError,
)
from translator_app.core.importers.marian_hf import read_hf_folder
from translator_app.core.importers.marian_npz import read_opus_release
from translator_app.core.models.config import ModelConfig
from translator_app.core.models.model import build_model

# ---------------------------------------------------------------- alignment head
# German sentences of several kinds and lengths, translated at import to find the head
# whose cross-attention is cleanest.
PROBE_SENTENCES = (
    "Das Haus ist klein.",
    "Ich habe heute leider keine Zeit, weil ich zum Arzt muss.",
    "Der Hund läuft schnell über die Straße.",
    "Wir treffen uns morgen um acht Uhr am Bahnhof.",
    "Die Regierung hat gestern neue Gesetze für den Klimaschutz beschlossen.",
    "Kannst du mir bitte sagen, wo der nächste Supermarkt ist?",
)


def head_entropies(model, tokenizer, sentences=PROBE_SENTENCES) -> torch.Tensor:
    """[L, H]: the mean entropy (nats) of each decoder layer's and head's cross-attention
    over the words of greedy translations of ``sentences``. A head that aligns puts each
    target word's weight on one or two source pieces: low entropy. The EOS rows and
    columns are left out (attention parks there)."""

    rows = [list(tokenizer.encode(t).ids) + [tokenizer.eos_id] for t in sentences]
    src, mask = pad_rows(rows, tokenizer.pad_id)
    with torch.no_grad():
        hyps = greedy_search(model, src, mask, SearchOptions(all_layers=True))
    total, count = None, 0
    for row, [h] in zip(rows, hyps, strict=True):
        att = h.layers[:-1, :, :, : len(row) - 1].float()  # words only: no EOS row or column
        if att.numel() == 0:
            continue
        att = att / att.sum(-1, keepdim=True).clamp_min(1e-9)
        ent = -(att * att.clamp_min(1e-9).log()).sum(-1)  # [T, L, H]
        total = ent.sum(0) if total is None else total + ent.sum(0)
        count += ent.size(0)
    if total is None:
        cfg = model.config
        return torch.zeros(cfg.dec_layers, cfg.n_heads)
    return total / count


def alignment_choice(model, tokenizer) -> tuple[int, int]:
    """(layer, head) with the lowest entropy; OPUS-MT models were trained with guided
    alignment on one head (Marian: the last layer's first), which this finds when it is
    the sharpest. Ties keep that head."""
    ent = head_entropies(model, tokenizer)
    layers, heads = ent.shape
    guided = (layers - 1, 0)
    scored = [
        (ent[layer, head].item(), (layer, head) != guided, layer, head)
        for layer in range(layers)
        for head in range(heads)
    ]
    _, _, layer, head = min(scored)
    return layer, head


# ---------------------------------------------------------------- the bundle
@dataclass(frozen=True)
class Provenance:
    """Where a fetched model came from, for its card and config (Model → Get models…):
    ``how`` opens the card, ``origin_lines`` and ``score_lines`` are its bullet points,
    ``origin`` goes into config.json's ``origin``."""

    how: str
    origin_lines: tuple[str, ...]
    score_lines: tuple[str, ...]
    origin: dict


def import_card(
    name: str,
    src: Path,
    config: ModelConfig,
    n_params: int,
    layout: str,
    provenance: Provenance | None = None,
) -> str:
    """An imported model's card (the template: core/engine/model_card.py)."""
    what = "an OPUS-MT release" if layout == "opus-mt" else "a Hugging Face Marian folder"
    how = (
        provenance.how
        if provenance
        else f"Imported with `translator-train import-marian` from `{src.name}` ({what})."
    )
    return render(
        f"{name} — imported Marian model",
        [
            f"{how} The weights are the published ones, unchanged apart from their layout "
            "(key and value matrices stacked, Marian's matrices transposed, a zero row for "
            "<pad>); nothing from the download was run."
        ],
        [
            (
                "Origin, licence and attribution",
                list(provenance.origin_lines)
                if provenance
                else [card_data()["licences"]["opus-mt"]],
            ),
            (
                "Architecture (read from the download's configuration)",
                [
                    *architecture_lines(config, n_params),
                    f"- alignment shown in the app: decoder layer "
                    f"{config.alignment_layer_index + 1}, head {config.alignment_head + 1}, the "
                    f"head whose cross-attention was sharpest (lowest entropy) on "
                    f"{len(PROBE_SENTENCES)} German sentences translated at import",
                ],
            ),
            (
                "Scores",
                [
                    *(provenance.score_lines if provenance else ()),
                    "No scores were measured at import: run `translator-train eval --model "
                    "THIS_FOLDER --test FILE` for them.",
                ],
            ),
        ],
    )


def import_marian(
    src: str | Path,
    out: str | Path,
    *,
    name: str | None = None,
    overwrite: bool = False,
    provenance: Provenance | None = None,
) -> Path:
    """Read a Marian model folder and write it as a bundle at ``out``."""

    src = Path(src)
    if not src.exists():
        raise MarianImportError(src, "no such file or folder")
    if src.is_file() or any(src.glob("*.npz")):  # an OPUS-MT release, zipped or not
        config, state, tokenizer = read_opus_release(src)
        layout = "opus-mt"
    else:
        config, state, tokenizer = read_hf_folder(src)
        layout = "huggingface"
    model = build_model(config)
    model.load_state_dict(state, strict=False)  # output.weight is tied to the embedding
    model.eval()
    layer, head = alignment_choice(model, tokenizer)
    # The alignment is read from the config at each step: no weights change.
    config = model.config = dataclasses.replace(config, alignment_layer=layer, alignment_head=head)
    name = name or src.name
    card = import_card(name, src, config, model.num_parameters, layout, provenance)
    origin = {"imported_from": src.name, "layout": layout, "licence": "CC-BY-4.0"}
    origin.update(provenance.origin if provenance else {})
    return save_bundle(
        out,
        model,
        tokenizer,
        name=name,
        card=card,
        metrics={},
        search=SearchDefaults(),
        extra={"origin": origin},
        overwrite=overwrite,
    )
