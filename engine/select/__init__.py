"""Select: embedding features, the LightGBM ranker, its training and the selection evaluation."""
