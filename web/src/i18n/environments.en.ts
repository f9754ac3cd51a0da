/** English strings of project settings → environments (which environments are protected). */
export const environmentsEn: Record<string, string> = {
  'nav.settings.environments': 'Environments',
  'environments.title': 'Environments',
  'environments.intro':
    'A protected environment runs and shows only the versions of actions and views someone published there, so a save never reaches it unseen. An unprotected one runs the published version, else the latest.',
  'environments.readOnly':
    "You can see the environments but not change them: your roles ({roles}) lack the right 'manage_project' (administrators and development leads hold it, directly or through a user group).",
  'environments.name': 'Name',
  'environments.id': 'ID',
  'environments.protection': 'Protection',
  'environments.protected': 'Protected',
  'environments.protectedMeans': 'Only published versions run and show.',
  'environments.unprotected': 'Not protected',
  'environments.unprotectedMeans': 'Where nothing is published, the latest version runs.',
  'environments.protect': 'Protect',
  'environments.unprotect': 'Stop protecting',
  'environments.nowProtected': '{name} is protected: only published versions run there.',
  'environments.nowUnprotected': '{name} is no longer protected.',
  'environments.confirmUnprotect': 'Stop protecting {name}?',
  'environments.confirmUnprotectDetail':
    'Every action and view with nothing published to {name} will then run and show its latest saved version there at once, without anyone publishing it. Published versions keep running.',
  'environments.none': 'This project has no environments.',
};
