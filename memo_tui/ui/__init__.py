"""The Textual app: widgets, screens, dialogs and the controllers that do its work. Only this
package may import textual."""
