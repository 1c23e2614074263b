export const SETTINGS_PAGE: string;
export const REGENERATE: string;
/** The settings reference page (Markdown) for a parsed package.json; throws on a setting without a description. */
export function renderSettingsReference(pkg: unknown): string;
/** The page as it should be for the package.json in `root`. */
export function expectedSettingsPage(root: string): string;
