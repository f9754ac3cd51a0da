/** Object-storage results (docs/object-storage.md). */
export const objectsEn: Record<string, string> = {
  'objects.download': 'Download {name}',
  'objects.downloaded': 'Downloaded {name}',
  'objects.signedUrl': 'Signed URL',
  'objects.copy': 'Copy URL',
  'objects.copied': 'The URL was copied',
  'objects.copyFailed': 'The URL could not be copied: select it and copy it yourself',
  'objects.open': 'Open',
  'objects.expires': 'Works until {at}',
};
