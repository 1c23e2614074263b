// The colours VS Code hands a webview (--vscode-* variables and the body's theme class) for three
// built-in themes: Dark Modern, Light Modern and Dark High Contrast — the subset our stylesheet and
// the highlighter use, with the themes' own values. Applied to a test page to see the view as users
// of each theme do.
export interface Theme {
  name: string;
  bodyClass: 'vscode-dark' | 'vscode-light' | 'vscode-high-contrast';
  colors: Record<string, string>;
}

export const DARK: Theme = {
  name: 'dark',
  bodyClass: 'vscode-dark',
  colors: {
    foreground: '#cccccc',
    descriptionForeground: '#9d9d9d',
    'sideBar-background': '#181818',
    'editor-background': '#1f1f1f',
    'panel-border': '#2b2b2b',
    focusBorder: '#0078d4',
    'input-background': '#313131',
    'input-foreground': '#cccccc',
    'input-border': '#3c3c3c',
    'textCodeBlock-background': '#2b2b2b',
    'editorWidget-background': '#202020',
    'textLink-foreground': '#4daafc',
    errorForeground: '#f85149',
    'badge-background': '#616161',
    'badge-foreground': '#f8f8f8',
    'button-background': '#0078d4',
    'button-foreground': '#ffffff',
    'button-secondaryBackground': '#313131',
    'button-secondaryForeground': '#cccccc',
    'debugTokenExpression-name': '#c586c0',
    'debugTokenExpression-boolean': '#4e94ce',
    'debugTokenExpression-string': '#ce9178',
    'debugTokenExpression-number': '#b5cea8',
    'symbolIcon-functionForeground': '#b180d7',
    'symbolIcon-classForeground': '#ee9d28',
    'symbolIcon-variableForeground': '#75beff',
    'diffEditor-insertedLineBackground': 'rgba(155, 185, 85, 0.2)',
    'diffEditor-removedLineBackground': 'rgba(255, 0, 0, 0.2)',
    'editorGutter-addedBackground': '#2ea043',
    'editorGutter-deletedBackground': '#f85149',
  },
};

export const LIGHT: Theme = {
  name: 'light',
  bodyClass: 'vscode-light',
  colors: {
    foreground: '#3b3b3b',
    descriptionForeground: '#3b3b3b',
    'sideBar-background': '#f8f8f8',
    'editor-background': '#ffffff',
    'panel-border': '#e5e5e5',
    focusBorder: '#005fb8',
    'input-background': '#ffffff',
    'input-foreground': '#3b3b3b',
    'input-border': '#cecece',
    'textCodeBlock-background': '#f0f0f0',
    'editorWidget-background': '#f8f8f8',
    'textLink-foreground': '#005fb8',
    errorForeground: '#f85149',
    'badge-background': '#cccccc',
    'badge-foreground': '#3b3b3b',
    'button-background': '#005fb8',
    'button-foreground': '#ffffff',
    'button-secondaryBackground': '#e5e5e5',
    'button-secondaryForeground': '#3b3b3b',
    'debugTokenExpression-name': '#9b46b0',
    'debugTokenExpression-boolean': '#0000ff',
    'debugTokenExpression-string': '#a31515',
    'debugTokenExpression-number': '#098658',
    'symbolIcon-functionForeground': '#652d90',
    'symbolIcon-classForeground': '#d67e00',
    'symbolIcon-variableForeground': '#007acc',
    'diffEditor-insertedLineBackground': 'rgba(155, 185, 85, 0.2)',
    'diffEditor-removedLineBackground': 'rgba(255, 0, 0, 0.2)',
    'editorGutter-addedBackground': '#2ea043',
    'editorGutter-deletedBackground': '#f85149',
  },
};

export const HIGH_CONTRAST: Theme = {
  name: 'high-contrast',
  bodyClass: 'vscode-high-contrast',
  colors: {
    foreground: '#ffffff',
    descriptionForeground: 'rgba(255, 255, 255, 0.7)',
    'sideBar-background': '#000000',
    'editor-background': '#000000',
    'panel-border': '#6fc3df',
    focusBorder: '#f38518',
    contrastBorder: '#6fc3df',
    'input-background': '#000000',
    'input-foreground': '#ffffff',
    'input-border': '#6fc3df',
    'textCodeBlock-background': '#000000',
    'editorWidget-background': '#0c141f',
    'textLink-foreground': '#21a6ff',
    errorForeground: '#f48771',
    'badge-background': '#000000',
    'badge-foreground': '#ffffff',
    'button-background': '#000000',
    'button-foreground': '#ffffff',
    'button-secondaryBackground': '#000000',
    'button-secondaryForeground': '#ffffff',
    'debugTokenExpression-name': '#ffffff',
    'debugTokenExpression-boolean': '#75bdfe',
    'debugTokenExpression-string': '#f48771',
    'debugTokenExpression-number': '#89d185',
    'symbolIcon-functionForeground': '#b180d7',
    'symbolIcon-classForeground': '#ee9d28',
    'symbolIcon-variableForeground': '#75beff',
    'diffEditor-insertedLineBackground': 'transparent',
    'diffEditor-removedLineBackground': 'transparent',
    'diffEditor-insertedTextBorder': '#33ff2e',
    'diffEditor-removedTextBorder': '#ff008f',
    'editorGutter-addedBackground': '#487e02',
    'editorGutter-deletedBackground': '#f48771',
  },
};

export const THEMES = [LIGHT, DARK, HIGH_CONTRAST];

/** What VS Code does to a webview's document when the theme changes. */
export function applyTheme(theme: Theme): { bodyClass: string; css: string } {
  const css = `:root { ${Object.entries(theme.colors)
    .map(([k, v]) => `--vscode-${k}: ${v};`)
    .join(' ')} }`;
  return { bodyClass: theme.bodyClass, css };
}
