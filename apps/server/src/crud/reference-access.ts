// io/import.ts (helper H1's while issue #11 is worked on) still imports from here; the rules live in access/.
export { assertReferencesReadable } from '../access/references.ts';
