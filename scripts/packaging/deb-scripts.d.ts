export declare const DEB_SCRIPTS_DIR: string
export declare function cliLinkedScript(text: string): string
export declare function writeDebScripts(root: string): { afterInstall: string; afterRemove: string }
