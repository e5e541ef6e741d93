'use strict';
// The provisioner, buggy: a volume with a generated name, then its name on the claim (two writes).
require('./lib').startProvisioner({ variant: 'buggy', deterministicNames: false });
