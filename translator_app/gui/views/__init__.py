"""What the text boxes and the panel show: linked highlights, positions, the alignment panel and heat-map, correction mode, the dictionary view."""
