enum PlaceholderLineEditor {}
