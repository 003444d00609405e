<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Gallery: the public photo albums (gallery, gallery/<id>).
 */
class Gallery extends MX_Controller
{
    public function index()
    {
        $this->load->model('album_model');
        $this->load->view('albums', array('albums' => $this->album_model->find_all()));
    }

    public function album($id)
    {
        $this->load->model('album_model');
        $this->load->view('album', array('album' => $this->album_model->find((int) $id)));
    }
}
