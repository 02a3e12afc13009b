"""What a translation must keep: numbers, times and dates (found and checked), names and
places (lists, annotations, placeholders) and the user's glossary terms."""
