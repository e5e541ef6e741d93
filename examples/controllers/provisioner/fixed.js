'use strict';
// The provisioner, fixed: the volume's name follows from the claim's; an existing one is adopted.
require('./lib').startProvisioner({ variant: 'fixed', deterministicNames: true });
