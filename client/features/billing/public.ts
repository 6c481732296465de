// What other features may use of billing: the saved-cards section of My Account.
export { SavedCards } from './components/saved-cards'
