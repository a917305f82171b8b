// Jest's `preset: 'petstore-orders-simulator'` reads this file; the preset itself is built from src/jest-preset.ts.
module.exports = require('./dist/src/jest-preset.js').default
