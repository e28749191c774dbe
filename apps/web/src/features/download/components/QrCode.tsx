// The QR code moved to components/ (the invitation page draws one too); kept here for the download feature's imports.
export { QrCode, qrModules } from '../../../components/QrCode.tsx';
