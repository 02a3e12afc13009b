"""The Teach dialog's options: where teaching starts, the new model's name, how hard it
tries (and the advanced epochs and learning rate), and the device.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QFormLayout, QLineEdit, QSpinBox

from translator_app.core.platform.hardware import DEVICES
from translator_app.gui.shared.model_list import discover
from translator_app.gui.teach.teach_messages import free_name


class TeachOptions(QFormLayout):
    """The options' form; ``base`` (a bundle's folder, named ``base_name``) is offered
    where the models found do not hold it."""

    def __init__(self, base: str, base_name: str) -> None:
        super().__init__()
        # Where teaching starts: the bundled base model unless the user picks another (a
        # run never silently starts from whichever model happens to be selected).
        self.start_box = QComboBox()
        self.start_box.setAccessibleName("Start from")
        self.start_box.setToolTip("The model the new one starts from")
        for entry in discover():
            self.start_box.addItem(entry.label, entry.path)
        if self.start_box.findData(base) < 0:
            self.start_box.addItem(base_name, base)
        self.start_box.setCurrentIndex(0)
        self.name_edit = QLineEdit(free_name("taught"))
        self.name_edit.setAccessibleName("New model name")
        self.name_edit.setToolTip("A short name of your choice; you can rename it later")
        # How hard it tries, not epochs and learning rates (trainer/teach_recipe.py sizes the
        # run to the data); Advanced keeps a fixed number of epochs for those who want it.
        self.effort = QComboBox()
        self.effort.setAccessibleName("How hard it tries")
        self.effort.addItem("Quick (about a minute for 100 pairs)", "quick")
        self.effort.addItem("Thorough (longer; for thousands of pairs)", "thorough")
        self.effort.setToolTip(
            "Quick learns your terms and keeps everyday sentences as they were; "
            "Thorough trains longer, which pays with more pairs"
        )
        self.epochs = QSpinBox()
        self.epochs.setRange(0, 50)
        self.epochs.setSpecialValueText("as the effort says")
        self.epochs.setAccessibleName("Epochs (advanced)")
        self.epochs.setToolTip("Advanced: passes over your pairs, instead of the effort's")
        self.learning_rate = QComboBox()
        self.learning_rate.setAccessibleName("Learning rate (advanced)")
        self.learning_rate.setToolTip(
            "Advanced: how far each step moves the model; higher learns faster and forgets more"
        )
        self.learning_rate.addItem("as the effort says", 0.0)
        for rate in (1e-5, 3e-5, 1e-4, 3e-4):
            self.learning_rate.addItem(f"{rate:g}", rate)
        self.device = QComboBox()
        self.device.addItems(list(DEVICES))
        self.addRow("Start from", self.start_box)
        self.addRow("New model name", self.name_edit)
        self.addRow("How hard it tries", self.effort)
        self.addRow("Epochs (advanced)", self.epochs)
        self.addRow("Learning rate (advanced)", self.learning_rate)
        self.addRow("Device", self.device)
