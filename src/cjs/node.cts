import requireEsm = require('./require-esm.cjs')

export = requireEsm(() => require('../node.js'), 'petstore-orders-simulator/node (setupSimulatorServer)')
