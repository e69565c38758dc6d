/**
 * @file The window ops of torch.nn.functional (convolution, pooling, padding, resampling, unfold),
 * gathered for the nn.functional namespace.
 */
export { conv1d, conv2d, conv3d, convTranspose1d, convTranspose2d, type ConvOptions, type ConvTransposeOptions } from "./nn_conv.js";
export { maxPool1d, maxPool2d, avgPool1d, avgPool2d, adaptiveAvgPool1d, adaptiveAvgPool2d, type MaxPoolOptions, type AvgPoolOptions } from "./nn_pool.js";
export { pad, type PadMode, type PadOptions } from "./nn_pad.js";
export { interpolate, unfold, type InterpolateOptions, type UnfoldOptions } from "./nn_resample.js";
