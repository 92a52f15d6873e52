enum PlaceholderPipeBench {}
