// Text of several lines for the terminal that quotes the user's own arguments (commander's
// errors and the help after them): each line made plain (shared/plain-text.ts), so an argument
// cannot drive the terminal or reorder its line, and the line breaks between lines kept.
import { plainText } from '../../shared/plain-text'

export const terminalLines = (text: string): string => text.split('\n').map(plainText).join('\n')
